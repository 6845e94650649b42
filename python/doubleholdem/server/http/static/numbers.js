// Seats and tables are numbered from 0 in the protocol's fields (docs/PROTOCOL.md) and
// from 1 wherever a person reads them: said here, once, for every script of the page.
const People = Object.freeze({
  seat: (index) => `seat ${index + 1}`,
  Seat: (index) => `Seat ${index + 1}`,
  table: (index) => `table ${index + 1}`,
  Table: (index) => `Table ${index + 1}`,
});
