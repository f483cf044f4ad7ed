#!/usr/bin/env node
// Thin launcher so `npx searchloop` works from the compiled output.
import '../dist/cli/cli.js';
