import { inject } from 'vitest';
import { defineConformanceTests } from '../src/vitest/adapter.js';
import { checks } from './catalogue.js';

defineConformanceTests(checks, inject('runConfig'));
