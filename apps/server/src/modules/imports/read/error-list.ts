/**
 * The errors of one read, collected rather than thrown one at a time so that a user sees every
 * problem of an upload at once; the list is bounded (a million bad rows must not make a million
 * strings).
 */
export class ErrorList {
  private readonly listed: string[] = [];
  private more = 0;

  constructor(private readonly max: number) {}

  get count(): number {
    return this.listed.length + this.more;
  }

  /** "<file>, wiersz <n>, kolumna <name>: <message>", the parts not applicable left out. */
  add(file: string, message: string, row?: number, column?: string): void {
    if (this.listed.length >= this.max) {
      this.more += 1;
      return;
    }
    let where = file;
    if (row !== undefined) where += `, wiersz ${row}`;
    if (column !== undefined) where += `, kolumna ${column}`;
    this.listed.push(`${where}: ${message}`);
  }

  /** Adds every error of another list (one read attempt's, once it has succeeded). */
  absorb(other: ErrorList): void {
    for (const line of other.listed) {
      if (this.listed.length >= this.max) this.more += 1;
      else this.listed.push(line);
    }
    this.more += other.more;
  }

  toArray(): string[] {
    return this.more > 0 ? [...this.listed, `… i ${this.more} więcej`] : [...this.listed];
  }
}
