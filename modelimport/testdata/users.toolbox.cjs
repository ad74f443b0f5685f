// DynamoDB-Toolbox (v0.9) entity definitions, in its documented form: a
// table's key names, attributes flagged partitionKey / sortKey, defaults
// that build the keys.
const table = {
  name: 'App',
  partitionKey: 'pk',
  sortKey: 'sk',
  indexes: { GSI1: { partitionKey: 'gsi1pk', sortKey: 'gsi1sk' } },
}

const User = {
  name: 'User',
  table,
  attributes: {
    pk: { partitionKey: true, hidden: true, default: (data) => `USER#${data.userId}` },
    sk: { sortKey: true, hidden: true, default: 'PROFILE' },
    gsi1pk: { partitionKey: 'GSI1', default: ({ email }) => `EMAIL#${email}` },
    gsi1sk: { sortKey: 'GSI1', default: 'USER' },
    userId: { type: 'number', required: true },
    email: 'string',
  },
}

const Session = {
  name: 'Session',
  table,
  attributes: {
    pk: { partitionKey: true, prefix: 'USER#' },
    sk: { sortKey: true, hidden: true },
    started: ['sk', 0],
    device: ['sk', 1, { type: 'string' }],
    gsi1pk: { partitionKey: 'GSI1', default: (data) => data.token.slice(0, 8) },
  },
}

module.exports = { User, Session }
