// The screens' browser bundle and stylesheet, imported `with { type: 'text' }`: the text is
// embedded in the executable by `bun build --compile`.
declare module '*/generated/screens.js' {
  const text: string
  export default text
}
declare module '*/screens.css' {
  const text: string
  export default text
}
declare module '*/generated/devices.js' {
  const text: string
  export default text
}
declare module '*/devices.css' {
  const text: string
  export default text
}
declare module '*/generated/reports.js' {
  const text: string
  export default text
}
declare module '*/reports.css' {
  const text: string
  export default text
}
declare module 'uplot/dist/uPlot.min.css' {
  const text: string
  export default text
}
declare module '*/generated/phone.js' {
  const text: string
  export default text
}
declare module '*/phone.css' {
  const text: string
  export default text
}
declare module '*/generated/login.js' {
  const text: string
  export default text
}
declare module '*/login.css' {
  const text: string
  export default text
}
declare module '*/generated/manage.js' {
  const text: string
  export default text
}
declare module '*/manage.css' {
  const text: string
  export default text
}
declare module '*/generated/admin.js' {
  const text: string
  export default text
}
declare module '*/admin.css' {
  const text: string
  export default text
}
declare module '*/generated/hq.js' {
  const text: string
  export default text
}
declare module '*/hq.css' {
  const text: string
  export default text
}
declare module '*/generated/phone-sw.js' {
  const text: string
  export default text
}
