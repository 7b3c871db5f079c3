import { ConsolePage } from './console.tsx';

// Being written (issue 17).
export function ApiKeys() {
  return <ConsolePage title="API keys">{null}</ConsolePage>;
}
