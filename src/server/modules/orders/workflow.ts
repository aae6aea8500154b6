/**
 * A workflow is named steps run in order over one shared state (ADR 0170). A step may end the
 * workflow early ('done': the answer is known, say a replayed order). A step that did something
 * a later refusal must undo declares `compensate`: when a later step refuses (throws a domain
 * error), the steps that finished are compensated in reverse order, each exactly once, and the
 * refusal they hand back is the one thrown. A fault that is not a refusal (a database error)
 * compensates nothing: what it left half done is for the reconciler, which can still finish it.
 */
import { DomainError } from '../../lib/domain-error.ts'

export type StepOutcome = 'next' | 'done'

export interface Step<S> {
  readonly name: string
  run(state: S): Promise<StepOutcome> | StepOutcome
  /** Undoes this step after a later one refused; answers the refusal to pass on (may say more). */
  compensate?(state: S, refusal: DomainError): Promise<DomainError>
}

export async function runSteps<S>(steps: readonly Step<S>[], state: S): Promise<void> {
  const finished: Step<S>[] = []
  for (const step of steps) {
    let outcome: StepOutcome
    try {
      outcome = await step.run(state)
    } catch (err) {
      if (!(err instanceof DomainError)) throw err
      let refusal = err
      for (const done of finished.reverse())
        if (done.compensate) refusal = await done.compensate(state, refusal)
      throw refusal
    }
    finished.push(step)
    if (outcome === 'done') return
  }
}
