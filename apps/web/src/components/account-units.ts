// The choices of an account's unit picker (account-fields.tsx), apart so that they are tested
// without a browser.

export interface Unit {
  id: number;
  name: string;
}

/**
 * The units to choose from, as the select holds them (text ids), with the account's own units
 * added where the list lacks them: a unit deleted after it was assigned still shows its name
 * (and can be taken away).
 */
export function unitChoices(
  units: readonly Unit[],
  assigned: readonly Unit[],
): { value: string; label: string }[] {
  const choices = units.map((unit) => ({ value: String(unit.id), label: unit.name }));
  for (const unit of assigned) {
    if (!choices.some((choice) => choice.value === String(unit.id))) {
      choices.push({ value: String(unit.id), label: unit.name });
    }
  }
  return choices;
}
