// Runs the Khronos glTF-Validator (the npm package gltf-validator) on one file and fails
// on any error or warning. Usage: node tests/gltf-validate.js VALIDATOR_DIR FILE.gltf
'use strict';
const fs = require('fs');
const path = require('path');
const [validatorDir, file] = process.argv.slice(2);
if (!validatorDir || !file) {
    console.error('usage: node tests/gltf-validate.js VALIDATOR_DIR FILE.gltf');
    process.exit(2);
}
const validator = require(path.resolve(validatorDir));
validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {
    uri: path.basename(file),
    maxIssues: 100,
    externalResourceFunction: (uri) => new Promise((resolve, reject) => {
        fs.readFile(path.join(path.dirname(file), decodeURIComponent(uri)),
                    (err, data) => (err ? reject(err.toString()) : resolve(new Uint8Array(data))));
    }),
}).then((report) => {
    const i = report.issues;
    console.log(`gltf-validator ${report.validatorVersion}: ${file}: ${i.numErrors} errors, ` +
                `${i.numWarnings} warnings, ${i.numInfos} infos, ${i.numHints} hints`);
    for (const m of i.messages)
        console.log(`  ${m.severity === 0 ? 'error' : m.severity === 1 ? 'warning' : 'note'} ${m.code} ${m.pointer || ''}: ${m.message}`);
    process.exit(i.numErrors || i.numWarnings ? 1 : 0);
}).catch((error) => {
    console.error(`gltf-validator failed: ${error}`);
    process.exit(2);
});
