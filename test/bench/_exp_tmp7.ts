import { openStore } from '../../pipeline/store/index.ts';
const s = await openStore(':memory:');
console.log(await s.all(`SELECT * FROM (SELECT unnest(from_json($1::JSON, '[{"a":"VARCHAR","n":"VARCHAR[]","o":"JSON"}]'), recursive := true)) t`, [JSON.stringify([{ a: 'x', n: ['p', 'q'], o: [{ k: 1 }] }, { a: 'y', n: [], o: [] }])]));
console.log(await s.all(`SELECT r.* FROM (SELECT unnest(from_json($1::JSON, '[{"a":"VARCHAR","n":"VARCHAR[]","o":"JSON"}]')) AS r) t`, [JSON.stringify([{ a: 'x', n: ['p', 'q'], o: [{ k: 1 }] }, { a: 'y', n: [], o: [] }])]));
s.close();
