// wrangler (and @cloudflare/vitest-plugin) turn `import x from './file.wasm'` into a CompiledWasm module:
// the default export is an already compiled WebAssembly.Module (workerd cannot compile wasm from bytes).
declare module '*.wasm' {
  const module: WebAssembly.Module;
  export default module;
}
