import path from 'node:path';
import { defineConfig, UserConfig } from 'vite';

/**
 * One Vite configuration for both consoles: each is its own build (its own entry, its own output
 * directory under dist/web), so nothing of one ships in the other.
 */
export function consoleConfig(name: 'product-console' | 'operator-console'): UserConfig {
  const web = import.meta.dirname;
  return defineConfig({
    root: path.join(web, name),
    base: '/',
    build: {
      outDir: path.join(web, '..', 'dist', 'web', name),
      emptyOutDir: true,
      sourcemap: true,
      // The size check (scripts/console-checks.mjs) reads the manifest to find the initial chunks.
      manifest: true,
      // The budget that matters is the gzipped initial load, which scripts/console-checks.mjs checks.
      chunkSizeWarningLimit: 2048,
      rollupOptions: {
        // React libraries mark their modules "use client" for server components; a browser bundle has no use for it.
        onwarn(warning, warn) {
          if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
        },
      },
    },
  });
}
