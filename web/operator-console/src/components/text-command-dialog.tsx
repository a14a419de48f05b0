import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { textProblem } from '../domain/request-form';
import { ErrorAlert } from './error-alert';

interface Props {
  opened: boolean;
  onClose: () => void;
  title: string;
  explanation: string;
  field: 'reason' | 'justification';
  label: string;
  confirm: string;
  color?: string;
  /** Sends the command; a refusal stays in the dialog, as the control plane worded it. */
  onSubmit: (text: string) => Promise<unknown>;
}

/**
 * A command that takes a text (reject, cancel: a reason; deprovision: a justification). The rule is
 * shown while typing, and the control plane judges what is sent: its 422 is shown as it answered.
 */
export function TextCommandDialog({
  opened,
  onClose,
  title,
  explanation,
  field,
  label,
  confirm,
  color,
  onSubmit,
}: Props) {
  const [text, setText] = useState('');
  const [touched, setTouched] = useState(false);
  const [refusal, setRefusal] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const hint = touched ? textProblem(field, text) : null;

  const close = () => {
    setText('');
    setTouched(false);
    setRefusal(null);
    onClose();
  };

  const submit = async () => {
    setPending(true);
    setRefusal(null);
    try {
      await onSubmit(text);
      close();
    } catch (error) {
      setRefusal(error);
    } finally {
      setPending(false);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={title} closeButtonProps={{ 'aria-label': 'Close' }}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
        noValidate
      >
        <Stack>
          <Text size="sm">{explanation}</Text>
          <Textarea
            label={label}
            required
            autosize
            minRows={3}
            value={text}
            error={refusal ? undefined : hint}
            description={`${text.trim().length} characters (at least ${field === 'reason' ? 3 : 20})`}
            onChange={(event) => {
              setText(event.currentTarget.value);
              setTouched(true);
              setRefusal(null);
            }}
            data-autofocus
          />
          <ErrorAlert error={refusal} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Back
            </Button>
            <Button type="submit" color={color} loading={pending}>
              {confirm}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
