/** Vite's `?raw` suffix imports a file as its text (the workerd tests read README.md this way). */
declare module '*?raw' {
  const text: string;
  export default text;
}
