// wrangler (and @cloudflare/vitest-plugin) turn `import x from './file.txt'` into a Text module: the default export
// is the file's text (the API reference page's Swagger UI files, src/routes/docs.ts).
declare module '*.txt' {
  const text: string;
  export default text;
}
