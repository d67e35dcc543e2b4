// prom-client ships types for its index only; these are the same classes, loaded one by one
// (src/ops/metrics.ts says why). Each file is CommonJS `module.exports = Class`.
declare module 'prom-client/lib/registry' {
  import { Registry } from 'prom-client'
  export default Registry
}
declare module 'prom-client/lib/counter' {
  import { Counter } from 'prom-client'
  export default Counter
}
declare module 'prom-client/lib/gauge' {
  import { Gauge } from 'prom-client'
  export default Gauge
}
declare module 'prom-client/lib/histogram' {
  import { Histogram } from 'prom-client'
  export default Histogram
}
