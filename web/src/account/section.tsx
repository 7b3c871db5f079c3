import type { ComponentChildren, Ref } from 'preact';

/** One panel of the account page: a region named by its h2, which the side navigation links to by `id`. */
export function Section(props: {
  id: string;
  title: string;
  children: ComponentChildren;
  headingRef?: Ref<HTMLHeadingElement>;
}) {
  return (
    <section class="panel account-section" id={props.id} aria-labelledby={`${props.id}-title`}>
      <h2 id={`${props.id}-title`} tabIndex={-1} ref={props.headingRef}>
        {props.title}
      </h2>
      {props.children}
    </section>
  );
}
