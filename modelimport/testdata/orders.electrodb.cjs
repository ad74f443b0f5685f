// An ElectroDB model in a CommonJS module: casing per key, an empty sort
// key composite, padding, and a sparse index (its condition a function).
module.exports = {
  Order: {
    model: { entity: 'Order', version: '2', service: 'Shop' },
    attributes: {
      orderId: { type: 'string', required: true },
      status: { type: ['open', 'closed'], required: true },
      warehouseId: { type: 'number', required: true },
      line: { type: 'number', required: true, padding: { length: 4, char: '0' } },
    },
    indexes: {
      byId: {
        pk: { field: 'pk', composite: ['orderId'], casing: 'upper' },
        sk: { field: 'sk', composite: [] },
      },
      open: {
        index: 'gsi1',
        condition: (attr) => attr.status === 'open',
        pk: { field: 'gsi1pk', composite: ['warehouseId'] },
        sk: { field: 'gsi1sk', composite: ['orderId', 'line'], casing: 'none' },
      },
    },
  },
}
