#!/usr/bin/env node
import { loadBundle } from './load-bundle.js';

await loadBundle().main(process.argv.slice(2));
