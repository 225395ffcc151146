import { useEffect, type ComponentType, type ReactNode } from 'react';

function Hydrated({ then, children }: { then: () => void; children: ReactNode }) {
  useEffect(then, [then]);
  return children;
}

/** An island's tree, the same on the server and in the browser (useId numbers by position in it). */
export function islandElement(Code: ComponentType<object>, props: object, onHydrated: () => void) {
  return (
    <Hydrated then={onHydrated}>
      <Code {...props} />
    </Hydrated>
  );
}
