import { ConsolePage } from './console.tsx';

// Being written (issue 17).
export function Roles() {
  return <ConsolePage title="Roles">{null}</ConsolePage>;
}
