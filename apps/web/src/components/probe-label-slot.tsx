import { createContext, Suspense, useContext } from 'react';
import type { ReactNode } from 'react';

/**
 * What the label button needs (features/probes/label-print-button.tsx): a sample, or a kit order
 * whose kits' labels print before any sample is drawn (ADR 035).
 */
export type ProbeLabelTarget =
  | {
      of?: 'probes';
      id: number;
      code: string;
      type_of_material: string;
      collect_place: string;
      /** The dialog's starting amount (a kit order's labels_amount); 1 when not given. */
      labels_amount?: number;
    }
  | {
      of: 'probe-sets';
      /** The order's id. */
      id: number;
      /** What the preview shows: the kits' codes. */
      code: string;
      /** The first kit's heading, "ZESTAW 1/3". */
      heading: string;
      /** Labels per kit the dialog starts with: the order's labels_amount. */
      labels_amount?: number;
    };

/** Renders the label button for one sample. */
export type RenderLabelButton = (probe: ProbeLabelTarget) => ReactNode;

const LabelButtonContext = createContext<RenderLabelButton | null>(null);

/**
 * The samples feature's label button, handed to other features (the patient card's samples tab)
 * by the app: features do not import each other (lint boundaries), the app composes them.
 */
export const ProbeLabelButtonProvider = LabelButtonContext.Provider;

/** The label button given by the app; nothing where none was given (a bare test render). */
export function ProbeLabelButton({ probe }: { probe: ProbeLabelTarget }) {
  const render = useContext(LabelButtonContext);
  return render ? <Suspense fallback={null}>{render(probe)}</Suspense> : null;
}
