/*
 * The head-office programs' door (contract §26): what only a command loads, on demand — `lobby
 * hq serve` and `lobby hq users` (src/cli/hq.ts) and a branch's link to head office (src/root/
 * tasks.ts, with `--hq`). Apart from index.ts, so the console's door stays light: a branch that
 * never talks to head office never loads these (test/platform/imports.test.ts: "program door").
 */
export { HqService } from './service'
export { createHqApp } from './app'
export { BranchLink } from './branch-link'
