declare module 'xhr2' {
  const XMLHttpRequest: unknown;
  export = XMLHttpRequest;
}
