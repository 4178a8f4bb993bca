// The two kinds of error the readers throw; a page shows their message as it is (one line).

/** A query the user typed that cannot be answered: the message says what is wrong and what to do. */
export class BadInput extends Error {
  /**
   * @param {string} message
   * @param {{field?: string, turn?: number}} where the input at fault, so that a page can show
   *   the message next to it: a query's field ("letters", "starts", "pattern", ...), or the
   *   guess number (1-based) of a history
   */
  constructor(message, {field, turn} = {}) {
    super(message);
    this.name = "BadInput";
    this.field = field;
    this.turn = turn;
  }
}

/** A data file that is missing, damaged or of a format version these readers do not read. */
export class BadArtifact extends Error {
  constructor(url, problem, remedy = "rebuild it with `make web`") {
    super(`${url}: ${problem}; ${remedy}`);
    this.name = "BadArtifact";
    this.url = url;
  }
}
