#!/usr/bin/env node
import { main } from '../dist/portaal.mjs';

await main(process.argv.slice(2));
