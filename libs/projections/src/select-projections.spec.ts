import { selectProjections } from './select-projections';

const namesOf = (names: string[]) => selectProjections(names).map((p) => p.name);

describe('selectProjections: what `replay --projection <names…>` rebuilds', () => {
  it('rebuilds everything for all', () => {
    expect(namesOf(['all'])).toEqual(['events', 'sessions', 'agents']);
  });

  it('rebuilds those named, in the order the projector runs them', () => {
    expect(namesOf(['events'])).toEqual(['events']);
    expect(namesOf(['agents', 'sessions'])).toEqual(['sessions', 'agents']);
  });

  it('refuses an unknown name and lists the known ones', () => {
    expect(() => selectProjections(['events', 'evnts'])).toThrow(
      'unknown projection(s) evnts; known: events, sessions, agents, all',
    );
  });
});
