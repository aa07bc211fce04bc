/**
 * Our plugins import the kernel as a third party does, through `chainhost/plugin` and
 * `chainhost/chain`; from source those resolve under the `chainhost-source` export condition
 * (.mocharc.json gives it to mocha). Every process a test starts (`node --import tsx
 * host/bin/…`) inherits it here, so none picks up a built dist/ copy beside the source one.
 */
const flag = '--conditions=chainhost-source';
const current = process.env.NODE_OPTIONS ?? '';
if (!current.split(/\s+/).includes(flag)) process.env.NODE_OPTIONS = `${current} ${flag}`.trim();
