import { ConsolePage } from './console.tsx';

// Being written (issue 17).
export function Users() {
  return <ConsolePage title="Users">{null}</ConsolePage>;
}
