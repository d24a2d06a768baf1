/**
 * Counts turns of the event loop (one immediate per turn, re-armed until stopped): tests of
 * sliced work count the turns it gave, never time it.
 */
export function countTurns(): { stop(): number; readonly turns: number } {
  let turns = 0;
  let counting = true;
  const count = () => {
    turns++;
    if (counting) setImmediate(count);
  };
  setImmediate(count);
  return {
    get turns() {
      return turns;
    },
    stop() {
      counting = false;
      return turns;
    },
  };
}
