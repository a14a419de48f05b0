import { selectProjections } from './select-projections';

const namesOf = (names: string[]) => selectProjections(names).map((p) => p.name);

describe('selectProjections: what `replay --projection <names…>` rebuilds', () => {
  it('rebuilds everything for all', () => {
    expect(namesOf(['all'])).toEqual(['events', 'sessions', 'agents', 'event-risk']);
  });

  it('brings event-risk along with events, whose rebuilt rows take their scores from it', () => {
    expect(namesOf(['events'])).toEqual(['events', 'event-risk']);
  });

  it('rebuilds the others alone', () => {
    expect(namesOf(['sessions'])).toEqual(['sessions']);
    expect(namesOf(['agents', 'sessions'])).toEqual(['sessions', 'agents']);
    expect(namesOf(['event-risk'])).toEqual(['event-risk']);
  });

  it('refuses an unknown name and lists the known ones', () => {
    expect(() => selectProjections(['events', 'evnts'])).toThrow(
      'unknown projection(s) evnts; known: events, sessions, agents, event-risk, all',
    );
  });
});
