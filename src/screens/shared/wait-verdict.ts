/*
 * Contract §19 and §28 "What the customer reads never contradicts itself": the one rule that
 * turns the estimator's facts about a ticket (or a ticket taken now) into what a page says of
 * its wait. Every surface — the kiosk's start screen and ticket, the print page, the phone page,
 * the join list, the board, the desk and the live floor — renders its words from this verdict,
 * in its own strings, so none of them can say "You're next" beside minutes, a number ahead or
 * "No counter is open right now".
 *
 * Pure and DOM-free, like options.ts beside it: the server's pages (join, print) and the browser
 * bundles import it alike (test/screens/contract.test.ts lets the bundles import src/screens/ only).
 */

/** What the estimator knows of a ticket's wait (src/tickets/estimate.ts, `LocationEstimates`). */
export interface WaitFacts {
  /** The tickets of its line called before it (the line's call order, src/tickets/priority.ts). */
  peopleAhead: number
  /** Seconds until it is called (the estimator's replay). */
  estimatedWaitSeconds: number
  /** No open counter serves its service now: the estimate assumed one (contract §19). */
  noCounterOpen: boolean
  /** An open counter of its service holds nothing now. */
  counterFree: boolean
  /**
   * A ticket taken now: the service takes tickets now (contract §18). Absent for a ticket
   * already in line: it is called whatever the hours say.
   */
  open?: boolean
  /** Closed: its next opening (ISO), or null when none is planned. */
  opensAt?: string | null
}

/** What a page says of a wait. */
export type WaitVerdict =
  /** Closed (contract §18): when it opens, nothing else (null: no opening is planned). */
  | { kind: 'closed'; opensAt: string | null }
  /** "You're next": nobody ahead and an open counter of its service free for it now. Alone: no minutes, no count. */
  | { kind: 'next' }
  /** "No counter is open right now", with the people ahead and "about N min" (the estimate assumed a counter). */
  | { kind: 'noCounter'; ahead: number; minutes: number }
  /** The people ahead and "about N min" (0 ahead included: a busy counter, or a shared one taking another line first). */
  | { kind: 'wait'; ahead: number; minutes: number }

/**
 * Minutes as people say them (contract §19): whole minutes rounded up, at least 1, up to 10,
 * then to the nearest 5 (`15`, not `13`). Never 0: a wait that is not "You're next" is at least
 * "about 1 min".
 */
export function minutesAsSaid(seconds: number): number {
  const exact = Math.max(1, Math.ceil(Math.max(seconds, 0) / 60))
  return exact > 10 ? Math.round(exact / 5) * 5 : exact
}

/**
 * The rule (contract §28):
 * - closed (a ticket taken now while its service is closed): when it opens;
 * - "You're next" only with nobody ahead, an open counter of the service free, and the
 *   estimator calling it now (0 s): a free counter the call rule gives another line's older
 *   ticket first (a shared counter) is not free for it;
 * - no counter open: "No counter is open right now", the people ahead and the minutes;
 * - else the people ahead and the minutes, nobody ahead included ("about 5 min").
 */
export function waitVerdict(facts: WaitFacts): WaitVerdict {
  if (facts.open === false) return { kind: 'closed', opensAt: facts.opensAt ?? null }
  const ahead = Math.max(facts.peopleAhead, 0)
  const minutes = minutesAsSaid(facts.estimatedWaitSeconds)
  if (facts.noCounterOpen) return { kind: 'noCounter', ahead, minutes }
  if (ahead === 0 && facts.counterFree && facts.estimatedWaitSeconds <= 0) return { kind: 'next' }
  return { kind: 'wait', ahead, minutes }
}
