import { currentTarget, sameTarget, useAlias, useAliasList, type AliasTarget } from '../../api/production';
import type { ConcludeBody, Experiment } from '../../api/types';
import { ErrorState } from '../../components/states';
import { AliasPicker } from './alias-picker';
import { describeTarget } from './describe';

type Variant = Experiment['variants'][number];

/** The version a model-backed variant serves: the one pinned when the phase started, else the one it names. */
export function variantTarget(variant: Variant | undefined): AliasTarget | null {
  if (!variant?.model) return null;
  return { modelId: variant.model.modelId, version: variant.model.pinnedVersion ?? variant.model.version ?? null };
}

/**
 * Before a conclusion is confirmed, says in one sentence what serves afterwards: which alias moves
 * from what to what, or that none does and why; with a picker when no promotion target is set.
 */
export function PromotionPreview({
  experiment,
  decision,
  winnerId,
  promote,
  onPromote,
}: {
  experiment: Experiment;
  decision: ConcludeBody['decision'];
  winnerId: string;
  /** The alias chosen in the dialog ('' for none: the experiment's own target, if any, moves). */
  promote: string;
  onPromote: (alias: string) => void;
}) {
  const configured = experiment.configuration.promote?.alias ?? '';
  const winner = experiment.variants.find((v) => v.id === winnerId);
  const to = variantTarget(winner);
  const shipsModel = decision === 'ship' && to !== null;
  const alias = shipsModel ? promote || configured : '';
  const aliases = useAliasList();
  const from = useAlias(alias === '' ? null : alias);
  let sentence: string;
  if (decision !== 'ship') {
    sentence = `No alias moves: a “${decision === 'rollback' ? 'roll back' : 'inconclusive'}” decision leaves what serves production as it is.`;
  } else if (!winner) {
    sentence = 'No alias moves: choose the winner to ship (shipping needs one).';
  } else if (to === null && configured !== '') {
    // The service refuses this (409): the experiment's promotion target cannot point at a variant without a model.
    sentence = `Nothing can ship: “${winner.name}” has no model, so the “${configured}” alias this experiment promotes cannot move to it. Choose a model-backed winner, or conclude as roll back or inconclusive.`;
  } else if (to === null) {
    sentence = `No alias moves: “${winner.name}” has no model, so it is served only to this experiment's units (assign answers it to each of them); no alias can point at it.`;
  } else if (alias === '') {
    sentence = `No alias moves: this experiment has no promotion target — choose one. Without one, nothing serves “${winner.name}” (${describeTarget(to)}) after concluding: searches outside experiments keep what the production alias serves.`;
  } else if (from.isPending) {
    sentence = `The “${alias}” alias moves to ${describeTarget(to)}.`;
  } else {
    const before = from.data ? currentTarget(from.data) : null;
    sentence = sameTarget(before, to)
      ? `The “${alias}” alias already serves ${describeTarget(to)}; it stays there.`
      : `The “${alias}” alias moves from ${describeTarget(before)} to ${describeTarget(to)}${from.data ? '' : ' (a new alias)'}.`;
  }
  return (
    <div className="callout callout-empty" style={{ minWidth: 0 }} data-testid="promotion-preview">
      <p>
        <strong>What serves afterwards:</strong> <span data-testid="promotion-sentence">{sentence}</span>
      </p>
      {from.error && <ErrorState error={from.error} title="The alias could not be read" />}
      {shipsModel && aliases.data && (
        <AliasPicker
          aliases={aliases.data.items}
          value={promote}
          onChange={onPromote}
          label={configured ? `Alias to move (the experiment names “${configured}”)` : 'Alias to move'}
          {...(configured ? {} : { noneLabel: 'No alias: serve the winner only to this experiment' })}
        />
      )}
    </div>
  );
}
