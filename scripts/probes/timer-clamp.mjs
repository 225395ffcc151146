// Not a test (issue 50): how long a worker's setTimeout(0) yield takes when each is chained from the last, against a MessageChannel message.
import { chromium } from 'playwright-core';
import { chromiumArgs, findChromium } from '../chromium.mjs';
const browser = await chromium.launch({ executablePath: findChromium(), args: chromiumArgs });
const page = await browser.newPage();
await page.goto('about:blank');
const r = await page.evaluate(async () => {
  const src = `onmessage = async () => {
    const t = (f) => new Promise((r) => f(r));
    let a = performance.now();
    for (let i = 0; i < 200; i++) await t((r) => setTimeout(r, 0));
    const timeout = (performance.now() - a) / 200;
    const ch = new MessageChannel();
    let wake = null; ch.port1.onmessage = () => wake();
    a = performance.now();
    for (let i = 0; i < 200; i++) await t((r) => { wake = r; ch.port2.postMessage(null); });
    const channel = (performance.now() - a) / 200;
    postMessage({ timeout, channel });
  }`;
  const w = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })));
  return new Promise((res) => { w.onmessage = (e) => res(e.data); w.postMessage(0); });
});
console.log('ms per yield in a worker:', JSON.stringify(r));
await browser.close();
