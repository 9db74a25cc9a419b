#!/usr/bin/env node
// Writes a workerd-compatible copy of hnswlib-wasm's Emscripten glue into generated/hnswlib/.
//
// Why: hnswlib-wasm 0.8.2 ships a browser-only build that cannot run in workerd as-is:
//   - the wasm is inlined as base64 and compiled from bytes at runtime (workerd only allows
//     wasm that was uploaded as a module, i.e. a ready WebAssembly.Module);
//   - it throws unless `window`/`importScripts` exist;
//   - embind builds invokers with `new Function` (workerd forbids code generation from strings),
//     one of them on the searchKnn filter-callback path;
//   - the Emscripten FS is not exported, so index bytes cannot be moved in or out.
// This script extracts the wasm to hnswlib.wasm and writes a patched ES module that takes the
// compiled module from the caller (Node: new WebAssembly.Module(bytes); Worker: `import wasm
// from './hnswlib.wasm'`). Node and the Worker then run the exact same wasm build, so a graph
// built offline in Node loads in the Worker.
//
// Every patch must match exactly once; otherwise we stop with an error naming the patch, so an
// hnswlib-wasm upgrade is noticed here and not in production. Output is deterministic (no
// timestamps) and files are only rewritten when their content changes.
//
// Usage: node scripts/prepare-hnswlib.mjs   (run as postinstall and in CI)

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PKG_DIR = join(ROOT, 'node_modules', 'hnswlib-wasm');
const DIST_DIR = join(PKG_DIR, 'dist');
const OUT_DIR = join(ROOT, 'generated', 'hnswlib');
const OUT_WASM = join(OUT_DIR, 'hnswlib.wasm');
const OUT_GLUE = join(OUT_DIR, 'hnswlib-glue.mjs');
const OUT_DTS = join(OUT_DIR, 'hnswlib-glue.d.mts');
// The version the patches below were written against. Another version is allowed as long as
// every patch site still matches (we fail loudly otherwise), but it is reported.
const TESTED_VERSION = '0.8.2';

function fail(message) {
  console.error(`prepare-hnswlib: ERROR: ${message}`);
  console.error('prepare-hnswlib: the hnswlib-wasm glue could not be patched; see scripts/prepare-hnswlib.mjs');
  process.exit(1);
}

/** Locates the hashed glue file (dist/hnswlib-<hash>.js) without hard-coding the hash. */
function findGlue() {
  if (!existsSync(DIST_DIR)) fail(`${relative(ROOT, DIST_DIR)} not found (is hnswlib-wasm installed?)`);
  const candidates = readdirSync(DIST_DIR)
    .filter((f) => /^hnswlib-[0-9a-f]+\.js$/.test(f))
    .sort();
  if (candidates.length !== 1) {
    fail(`expected exactly one dist/hnswlib-*.js glue file, found ${candidates.length}: ${candidates.join(', ')}`);
  }
  // Cross-check with the wrapper (dist/hnswlib.js), which lazily imports the glue.
  const wrapperPath = join(DIST_DIR, 'hnswlib.js');
  if (existsSync(wrapperPath)) {
    const wrapper = readFileSync(wrapperPath, 'utf8');
    if (!wrapper.includes(`import("./${candidates[0]}")`)) {
      fail(`dist/hnswlib.js does not import ./${candidates[0]}; the package layout changed`);
    }
  }
  return candidates[0];
}

/** Replaces exactly one occurrence of `find` (string or RegExp without the g flag). */
function patchOnce(src, name, find, replacement) {
  if (typeof find === 'string') {
    const first = src.indexOf(find);
    if (first < 0) fail(`patch "${name}": site not found`);
    if (src.indexOf(find, first + 1) >= 0) fail(`patch "${name}": site found more than once`);
    return src.slice(0, first) + replacement + src.slice(first + find.length);
  }
  const all = src.match(new RegExp(find.source, `${find.flags}g`));
  if (!all) fail(`patch "${name}": site not found`);
  if (all.length !== 1) fail(`patch "${name}": site found ${all.length} times`);
  return src.replace(find, () => replacement);
}

/** Replaces a whole function: from `start` up to and including `end`, which must contain `mustContain`. */
function replaceFunction(src, name, start, end, mustContain, replacement) {
  const from = src.indexOf(start);
  if (from < 0 || src.indexOf(start, from + 1) >= 0) fail(`patch "${name}": function start not found exactly once`);
  const endAt = src.indexOf(end, from);
  if (endAt < 0) fail(`patch "${name}": function end not found`);
  const body = src.slice(from, endAt + end.length);
  if (!body.includes(mustContain))
    fail(`patch "${name}": function body no longer contains ${JSON.stringify(mustContain)}`);
  return src.slice(0, from) + replacement + src.slice(endAt + end.length);
}

// ---------------------------------------------------------------------------------------------
// Replacement code (kept as close as possible to upstream Emscripten's DYNAMIC_EXECUTION=0 paths,
// but allocating per call so that re-entrant calls, e.g. from a filter callback, are safe).

const CRAFT_INVOKER = `  function craftInvokerFunction(humanName, argTypes, classType, cppInvokerFunc, cppTargetFunc, \
isAsync) {
      // patched (prepare-hnswlib): closure instead of new Function (forbidden in workerd).
      var argCount = argTypes.length;
      if (argCount < 2) {
        throwBindingError("argTypes array size mismatch! Must at least get return value and 'this' types!");
      }
      assert(!isAsync, 'Async bindings are only supported with JSPI.');
      var isClassMethodFunc = (argTypes[1] !== null && classType !== null);
      var needsDestructorStack = false;
      for (var i = 1; i < argTypes.length; ++i) {
        if (argTypes[i] !== null && argTypes[i].destructorFunction === undefined) {
          needsDestructorStack = true;
          break;
        }
      }
      var returns = (argTypes[0].name !== "void");
      var expectedArgCount = argCount - 2;
      return createNamedFunction(humanName, function() {
        if (arguments.length !== expectedArgCount) {
          throwBindingError('function ' + humanName + ' called with ' + arguments.length + ' arguments, expected ' + \
expectedArgCount + ' args!');
        }
        var destructors = needsDestructorStack ? [] : null;
        var thisWired;
        var argsWired = new Array(expectedArgCount);
        var invokerArgs = [cppTargetFunc];
        if (isClassMethodFunc) {
          thisWired = argTypes[1].toWireType(destructors, this);
          invokerArgs.push(thisWired);
        }
        for (var i = 0; i < expectedArgCount; ++i) {
          argsWired[i] = argTypes[i + 2].toWireType(destructors, arguments[i]);
          invokerArgs.push(argsWired[i]);
        }
        var rv = cppInvokerFunc.apply(null, invokerArgs);
        if (needsDestructorStack) {
          runDestructors(destructors);
        } else {
          for (var i = isClassMethodFunc ? 1 : 2; i < argTypes.length; ++i) {
            var param = (i === 1 ? thisWired : argsWired[i - 2]);
            if (argTypes[i].destructorFunction !== null) {
              argTypes[i].destructorFunction(param);
            }
          }
        }
        if (returns) {
          return argTypes[0].fromWireType(rv);
        }
      });
    }`;

const EMVAL_METHOD_CALLER = `  function __emval_get_method_caller(argCount, argTypes) {
      // patched (prepare-hnswlib): closure instead of new Function (forbidden in workerd).
      // This is the path C++ uses to call JS functions, e.g. the searchKnn filter callback.
      var types = emval_lookupTypes(argCount, argTypes);
      var retType = types[0];
      var signatureName = retType.name + "_$" + types.slice(1).map(function (t) { return t.name; }).join("_") + "$";
      var returnId = emval_registeredMethods[signatureName];
      if (returnId !== undefined) {
        return returnId;
      }
      var invokerFunction = function(handle, name, destructors, args) {
        var argN = new Array(argCount - 1);
        var offset = 0;
        for (var i = 0; i < argCount - 1; ++i) {
          argN[i] = types[i + 1].readValueFromPointer(args + offset);
          offset += types[i + 1]['argPackAdvance'];
        }
        var rv = handle[name].apply(handle, argN);
        for (var i = 0; i < argCount - 1; ++i) {
          if (types[i + 1]['deleteObject']) {
            types[i + 1].deleteObject(argN[i]);
          }
        }
        if (!retType.isVoid) {
          return retType.toWireType(destructors, rv);
        }
      };
      returnId = emval_addMethodCaller(invokerFunction);
      emval_registeredMethods[signatureName] = returnId;
      return returnId;
    }`;

const CREATE_WASM_TAIL = `  // patched (prepare-hnswlib): never compile wasm from bytes (workerd forbids it). The caller
  // either instantiates it itself (instantiateWasm hook) or passes a compiled WebAssembly.Module.
  if (Module['instantiateWasm']) {
    try {
      return Module['instantiateWasm'](info, receiveInstance);
    } catch(e) {
      err('Module.instantiateWasm callback failed with error: ' + e);
      readyPromiseReject(e);
      return {};
    }
  }
  if (Module['wasmModule']) {
    var compiledModule = Module['wasmModule'];
    WebAssembly.instantiate(compiledModule, info).then(function(result) {
      // instantiate(Module) yields an Instance; instantiate(bytes) (Node only) yields {instance}.
      receiveInstance(result && result.instance ? result.instance : result, compiledModule);
    }).catch(readyPromiseReject);
    return {};
  }
  readyPromiseReject(new Error('hnswlib-glue: pass { wasmModule } or { instantiateWasm } (the inline wasm was ' +
'removed)'));
  return {};`;

const FACTORY_EXPORT = `/**
 * Creates one hnswlib wasm instance (patched by scripts/prepare-hnswlib.mjs).
 * moduleOverrides must contain either \`wasmModule\` (a compiled WebAssembly.Module, e.g. from
 * \`import wasm from './hnswlib.wasm'\` in a Worker) or an Emscripten
 * \`instantiateWasm(imports, receiveInstance)\` hook. Call it inside a request/test, not at a
 * Worker's global scope. Resolves with the Emscripten Module (HierarchicalNSW, FS, HEAPU8, ...).
 */
export default function createHnswlibModule(moduleOverrides) {
  if (!moduleOverrides || (!moduleOverrides.wasmModule && typeof moduleOverrides.instantiateWasm !== 'function')) {
    return Promise.reject(new Error('createHnswlibModule: pass { wasmModule } or { instantiateWasm }'));
  }
  // Emscripten uses the object it receives as \`Module\` and mutates it: give it a copy.
  return hnswlib(Object.assign({}, moduleOverrides));
}
`;

const DTS = `// Generated by scripts/prepare-hnswlib.mjs. Do not edit.
// Types for the patched hnswlib-wasm Emscripten glue (only what this project uses).

export type HnswlibSpaceName = 'l2' | 'ip' | 'cosine';

export interface HnswlibModuleOverrides {
  /** A compiled module for generated/hnswlib/hnswlib.wasm. */
  wasmModule?: WebAssembly.Module;
  /** Emscripten hook: instantiate the wasm with \`imports\` and hand the instance to \`receiveInstance\`. */
  instantiateWasm?: (
    imports: WebAssembly.Imports,
    receiveInstance: (instance: WebAssembly.Instance, module?: WebAssembly.Module) => unknown,
  ) => unknown;
  /** stdout / stderr of the C++ side (default: console.log / console.warn). */
  print?: (text: string) => void;
  printErr?: (text: string) => void;
}

export interface HnswlibSearchResult {
  distances: number[];
  neighbors: number[];
}

/** embind class; instances live in the wasm heap until delete() is called. */
// Arities are checked by embind at call time (no optional arguments); these match 0.8.2.
export interface HnswlibHierarchicalNSW {
  initIndex(maxElements: number, m: number, efConstruction: number, randomSeed: number): void;
  /**
   * Reads \`/hnswlib-index/<filename>\` from the Emscripten FS (maxElements below the stored count
   * means the stored count). On failure the object must not be reused for another readIndex.
   */
  readIndex(filename: string, maxElements: number): void;
  /** Writes \`/hnswlib-index/<filename>\`, then THROWS (it tries to sync IndexedDB). */
  writeIndex(filename: string): void;
  addPoint(point: Float32Array | number[], label: number, replaceDeleted: boolean): void;
  addPoints(points: Array<Float32Array | number[]>, labels: number[], replaceDeleted: boolean): void;
  searchKnn(query: Float32Array | number[], k: number, filter: ((label: number) => boolean) | undefined): \
HnswlibSearchResult;
  setEfSearch(ef: number): void;
  getEfSearch(): number;
  getCurrentCount(): number;
  getMaxElements(): number;
  getNumDimensions(): number;
  delete(): void;
  isDeleted(): boolean;
}

/** The subset of Emscripten's FS used here (in-memory MEMFS). */
export interface HnswlibFS {
  mkdir(path: string): unknown;
  writeFile(path: string, data: Uint8Array, opts?: { canOwn?: boolean }): void;
  readFile(path: string, opts?: { encoding?: 'binary' }): Uint8Array;
  unlink(path: string): void;
  analyzePath(path: string): { exists: boolean };
}

export interface HnswlibModule {
  HierarchicalNSW: new (space: HnswlibSpaceName, dim: number, autoSaveFilename: string) => HnswlibHierarchicalNSW;
  FS: HnswlibFS;
  /** View on the wasm memory (replaced when memory grows; read it again each time). */
  HEAPU8: Uint8Array;
  /** [type, message] of a C++ exception (a WebAssembly.Exception) caught in JS. */
  getExceptionMessage(ex: unknown): [string, string | undefined];
  /** Frees a C++ exception object that was caught in JS (they are otherwise leaked). */
  freeCppException(ex: unknown): void;
}

export default function createHnswlibModule(moduleOverrides: HnswlibModuleOverrides): Promise<HnswlibModule>;
`;

// ---------------------------------------------------------------------------------------------

function main() {
  const pkg = JSON.parse(readFileSync(join(PKG_DIR, 'package.json'), 'utf8'));
  const glueName = findGlue();
  const original = readFileSync(join(DIST_DIR, glueName), 'latin1'); // latin1: byte-exact round trip
  const sourceHash = createHash('sha256').update(original, 'latin1').digest('hex');

  // 1. The inline wasm: pull the bytes out, leave a plain file name behind.
  const wasmLine = /^ {2}wasmBinaryFile = 'data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)';$/m;
  const m = original.match(wasmLine);
  if (!m) fail('patch "inline-wasm": base64 wasm data URI not found');
  const wasm = Buffer.from(m[1], 'base64');
  if (wasm.length < 8 || wasm.readUInt32BE(0) !== 0x0061736d) fail('inline wasm does not start with the \\0asm magic');
  let src = patchOnce(
    original,
    'inline-wasm',
    wasmLine,
    "  wasmBinaryFile = 'hnswlib.wasm'; // patched (prepare-hnswlib): inline wasm extracted to hnswlib.wasm",
  );

  // 2. import.meta.url is only used to locate the wasm file, which we never fetch.
  src = patchOnce(
    src,
    'import-meta',
    '  var _scriptDir = import.meta.url;',
    '  var _scriptDir = undefined; // patched (prepare-hnswlib): wasm comes from the caller, no URL needed',
  );

  // 3. The browser-only environment check.
  src = patchOnce(
    src,
    'environment-check',
    new RegExp(
      String.raw`^ {2}if \(!\(typeof window == 'object' \|\| typeof importScripts == 'function'\)\)` +
        String.raw` throw new Error\('not compiled for this environment.*$`,
      'm',
    ),
    '  // patched (prepare-hnswlib): removed the browser-only environment check (Node and workerd are fine)',
  );

  // 4. Instantiate only from a compiled module / the caller's hook.
  src = patchOnce(
    src,
    'instantiate-wasm',
    `  if (Module['instantiateWasm']) {

    try {
      return Module['instantiateWasm'](info, receiveInstance);
    } catch(e) {
      err('Module.instantiateWasm callback failed with error: ' + e);
        // If instantiation fails, reject the module ready promise.
        readyPromiseReject(e);
    }
  }

  // If instantiation fails, reject the module ready promise.
  instantiateAsync(wasmBinary, wasmBinaryFile, info, receiveInstantiationResult).catch(readyPromiseReject);
  return {}; // no exports yet; we'll fill them in later`,
    CREATE_WASM_TAIL,
  );

  // 5. The "still waiting on run dependencies" watchdog is a setInterval: timers are not allowed
  //    in a Worker's global scope and are pure diagnostics here.
  src = patchOnce(
    src,
    'dependency-watchdog',
    "if (runDependencyWatcher === null && typeof setInterval != 'undefined') {",
    'if (false) { // patched (prepare-hnswlib): no diagnostic setInterval',
  );

  // 6 + 7. embind code generation -> closures.
  src = replaceFunction(
    src,
    'craft-invoker',
    '  function craftInvokerFunction(humanName, argTypes, classType, cppInvokerFunc, cppTargetFunc, isAsync) {',
    '      return newFunc(Function, args1).apply(null, args2);\n    }',
    'invokerFnBody',
    CRAFT_INVOKER,
  );
  src = replaceFunction(
    src,
    'emval-method-caller',
    '  function __emval_get_method_caller(argCount, argTypes) {',
    '      emval_registeredMethods[signatureName] = returnId;\n      return returnId;\n    }',
    'newFunc(Function, params)',
    EMVAL_METHOD_CALLER,
  );

  // 8. Export FS (index bytes go in/out through MEMFS) and a way to free C++ exceptions caught in JS.
  //    Must run before unexportedSymbols installs its aborting getters (it skips own properties).
  src = patchOnce(
    src,
    'export-fs',
    '\nvar unexportedSymbols = [',
    `
// patched (prepare-hnswlib): exports used by index-format/hnsw.ts
Module['FS'] = FS;
Module['freeCppException'] = function(ex) {
  Module['___cxa_decrement_exception_refcount'](getCppExceptionThrownObjectFromWebAssemblyException(ex));
};
var unexportedSymbols = [`,
  );

  // 9. Our factory as the default export; drop the source map (it maps the unpatched file).
  src = patchOnce(src, 'default-export', 'export { hnswlib as default };', FACTORY_EXPORT);
  src = patchOnce(src, 'source-map', /^\/\/# sourceMappingURL=.*$/m, '');

  // Safety net: nothing that workerd rejects may remain.
  for (const [what, re] of [
    ['code generation (Function constructor)', /newFunc\(Function|new Function\(|[^\w.]Function\(/],
    ['eval', /[^\w.]eval\(/],
    ['inline wasm', /base64,[A-Za-z0-9+/]{64}/],
    ['import.meta', /import\.meta/],
  ]) {
    if (re.test(src)) fail(`patched glue still contains ${what}`);
  }

  const header =
    `// Generated by scripts/prepare-hnswlib.mjs from hnswlib-wasm@${pkg.version} dist/${glueName}\n` +
    `// (sha256 ${sourceHash}). Do not edit; re-run the script instead.\n`;
  const outputs = [
    [OUT_WASM, wasm],
    [OUT_GLUE, Buffer.from(header + src, 'latin1')],
    [OUT_DTS, Buffer.from(DTS, 'utf8')],
  ];

  mkdirSync(OUT_DIR, { recursive: true });
  let written = 0;
  for (const [path, bytes] of outputs) {
    // Only rewrite on change: keeps mtimes stable for watchers and build caches.
    if (existsSync(path) && readFileSync(path).equals(bytes)) continue;
    writeFileSync(path, bytes);
    written++;
  }
  return { pkg, glueName, wasm, glueBytes: outputs[1][1].length, written };
}

const { pkg, glueName, wasm, glueBytes, written } = main();
// Cheap end-to-end check that the output is a valid ES module and the wasm compiles.
try {
  const glue = await import(pathToFileURL(OUT_GLUE).href);
  if (typeof glue.default !== 'function') fail('patched glue has no default export function');
  await WebAssembly.compile(wasm);
} catch (e) {
  fail(`generated output does not load: ${e?.message ? e.message : e}`);
}
const versionNote = pkg.version === TESTED_VERSION ? '' : ` (WARNING: patches written for ${TESTED_VERSION})`;
console.log(
  `prepare-hnswlib: hnswlib-wasm@${pkg.version}${versionNote} dist/${glueName} -> ${relative(ROOT, OUT_DIR)}/ ` +
    `(hnswlib.wasm ${wasm.length} B, hnswlib-glue.mjs ${glueBytes} B; ` +
    `${written ? `${written} file(s) written` : 'up to date'})`,
);
