import { ConsolePage } from './console.tsx';

// Being written (issue 17).
export function UserPage() {
  return <ConsolePage title="User">{null}</ConsolePage>;
}
