// The SDK (client/) from its source: the pages speak to the API through it and nothing else.
export * from '../../client/src/index.ts';
