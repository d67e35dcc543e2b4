import { join } from 'node:path'
import { currentSection, type ResultsSection } from './sections'

/**
 * bench/hq-chain.ts's section of RESULTS.md. Its markers live here, apart from the script,
 * because the script runs the chain when it is loaded: bench/run.ts imports this to keep the
 * section when it writes the file again, without starting PostgreSQL.
 */
export const HQ_CHAIN_SECTION: ResultsSection = {
  file: process.env.BENCH_OUT ?? join(import.meta.dir, 'RESULTS.md'),
  start: '<!-- hq-chain:start -->',
  end: '<!-- hq-chain:end -->',
}

/** The section as RESULTS.md has it now, markers included; '' when it is not there. */
export const currentHqChainSection = (): string => currentSection(HQ_CHAIN_SECTION)
