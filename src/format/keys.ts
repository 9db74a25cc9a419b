/** Where artifacts live in R2 and the pointer in KV. One place, shared by the publisher and the Worker. */
export const pointerKey = (domain: string) => `${domain}/current`;
export const manifestKey = (domain: string, version: string) => `${domain}/${version}/manifest.json`;
export const objectKey = (domain: string, version: string, file: string) => `${domain}/${version}/${file}`;
