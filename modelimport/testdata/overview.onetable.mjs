/*
    A OneTable schema as a JS module (OneTable's own overview sample's form):
    types are the constructors String, Number and Date.
*/
const Match = {
    ulid: /^[0123456789ABCDEFGHJKMNPQRSTVWXYZ]{26}$/,
}

export default {
    format: 'onetable:1.1.0',
    version: '0.0.1',
    indexes: {
        primary: {hash: 'pk', sort: 'sk'},
        gs1: {hash: 'gs1pk', sort: 'gs1sk', project: ['gs1pk', 'gs1sk']},
    },
    models: {
        Account: {
            pk: {type: String, value: 'account#${id}'},
            sk: {type: String, value: 'account#'},
            id: {type: String, generate: 'ulid', validate: Match.ulid},
            name: {type: String, required: true},
            gs1pk: {type: String, value: 'account#'},
            gs1sk: {type: String, value: 'account#${name}${id}'},
        },
        Invoice: {
            pk: {type: String, value: 'account#${accountId}'},
            sk: {type: String, value: 'invoice#${date}#${seq:6}'},
            accountId: {type: String, required: true},
            date: {type: Date},
            seq: {type: Number},
            gs1pk: {type: String, value: '${_type}#'},
            gs1sk: {type: String, value: 'invoice#${date}#${seq:6}'},
        },
    },
    params: {
        isoDates: true,
        timestamps: true,
    },
}
