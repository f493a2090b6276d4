import { inject } from 'vitest';
import { defineConformanceTests } from '../src/vitest/adapter.js';
import { catalogue } from './catalogue.js';

defineConformanceTests(catalogue, inject('runConfig'));
