import { ConsolePage } from './console.tsx';

// Being written (issue 17).
export function Invitations() {
  return <ConsolePage title="Invitations">{null}</ConsolePage>;
}
