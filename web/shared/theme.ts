import { CSSVariablesResolver, createTheme, Notification } from '@mantine/core';

/**
 * Mantine's defaults with contrast raised to WCAG AA (4.5:1 for text), which the browser tests check
 * with axe-core: the primary shade one step darker; text on filled colours black or white, whichever
 * contrasts more (0.179 is the luminance where both give the same ratio); secondary ("dimmed") and
 * error text darker; and the text of light badges and alerts in the pale colours (green, lime,
 * yellow, orange, teal, cyan), whose shade 9 falls short on their own tint, 30% darker than shade 9
 * (outline badges and coloured text of those colours too).
 */
export const theme = createTheme({
  primaryShade: { light: 8, dark: 8 },
  autoContrast: true,
  luminanceThreshold: 0.179,
  // A toast's close button is an icon: screen readers need its name.
  components: {
    Notification: Notification.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss' } } }),
  },
});

const DARKER_LIGHT_TEXT: Record<string, string> = {
  cyan: '#08505d',
  teal: '#065940',
  green: '#1e612b',
  lime: '#406809',
  yellow: '#a15300',
  orange: '#98320b',
};

export const contrastVariables: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    ...Object.fromEntries(
      Object.entries(DARKER_LIGHT_TEXT).flatMap(([color, text]) => [
        [`--mantine-color-${color}-light-color`, text],
        [`--mantine-color-${color}-outline`, text],
        [`--mantine-color-${color}-text`, text],
      ]),
    ),
  },
  dark: {},
});
