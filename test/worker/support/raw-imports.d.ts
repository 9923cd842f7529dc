/** Vite's `?raw` imports (a file's text, bundled into the test): docs the worker tests check against. */
declare module "*?raw" {
  const text: string;
  export default text;
}
