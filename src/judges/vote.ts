export interface MajorityVote {
  /** Pass or fail when that side has strictly more than half of ALL votes; otherwise no verdict. */
  readonly verdict: boolean | null;
  /** Share of the votes in the largest of the pass / fail / no-verdict groups (1 = unanimous). */
  readonly agreement: number;
  readonly pass: number;
  readonly fail: number;
  readonly none: number;
}

/**
 * The verdict of R repeated judgments. A side wins only with a strict majority of all R votes,
 * no-verdict votes included: a tie is no verdict, and so is a pass that wins only because the
 * other repeats could not be read (`[pass, null, null]`), since an unreadable judge is not a vote
 * for either side. `agreement` measures the spread whatever the outcome.
 * @throws RangeError for an empty list (there is no verdict of zero judgments to report).
 */
export function majority(votes: readonly (boolean | null)[]): MajorityVote {
  if (votes.length === 0) throw new RangeError('majority of zero votes');
  let pass = 0;
  let fail = 0;
  for (const vote of votes) {
    if (vote === true) pass++;
    else if (vote === false) fail++;
  }
  const none = votes.length - pass - fail;
  const verdict = pass * 2 > votes.length ? true : fail * 2 > votes.length ? false : null;
  return { verdict, agreement: Math.max(pass, fail, none) / votes.length, pass, fail, none };
}
