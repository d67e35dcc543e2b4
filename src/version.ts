import pkg from '../package.json'
import { SCHEMA_VERSION } from './db/migrate'

export const VERSION: string = pkg.version
export const versionLine = () => `lobby ${VERSION} (schema ${SCHEMA_VERSION})`
