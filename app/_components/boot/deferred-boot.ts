/**
 * The site's JavaScript starts when the reader first reaches for the page, not while it loads. Every page is
 * complete HTML (prose, math, charts, the lab's controls), so the framework has nothing to do until the reader moves
 * the mouse, touches, scrolls with the wheel, focuses or types. Booting it at load blocked the main thread of
 * Lighthouse's simulated phone (4× CPU slowdown) for 0.2–0.6 s of total blocking time per page (`npm run
 * lighthouse`), most of it React and the router evaluating and hydrating a page that needed nothing from them yet.
 * Measured again with Next 16 and React 19 (the same build with and without this deferral, Lighthouse minutes apart on
 * a busy 2-core machine): booting at load added 1.1–4.6 s of blocking time on the home page and three labs, in the
 * framework's own chunks. The framework's mechanisms cannot remove that cost: the pages are already server components
 * with lazy islands and a lazy lab; what blocks is React, the router and the hydration of the root themselves, which
 * every page needs once and no lazy client component defers.
 * scripts/defer-runtime.mjs turns the build's framework <script src> tags into inert `text/arl-deferred` ones; this
 * script, inlined in <head>, starts them.
 *
 * - A page opened with settings in its address (a lab link's ?query, an assignment's #key=value), or whose hash
 *   changes, boots as soon as it is parsed: those settings must show before the reader acts on them. (The deferred
 *   tags end the body, so a boot asked for earlier, from <head> or by a reader quicker than a long page, waits.)
 *   So does a page with a `data-boot-eager` element: one whose content depends on the address or the device (the
 *   exercise hand-in page reads its assignment from the hash) and would otherwise show a placeholder.
 * - Scripts started after DOMContentLoaded need nothing more: Next.js reads the page's inline data (all of it already
 *   parsed by then) into a stream that it closes a task after it starts when the document is no longer loading, as
 *   it must for async scripts that run late on any page; and every streamed Suspense boundary's inline reveal script
 *   (a lab's) has run by then too, so React never mistakes one for a boundary the server gave up on (which it does
 *   for a still-pending one once the document is no longer loading). (This script used to fake
 *   `document.readyState` as "loading" until hydration; with Next 16 and React 19 every page hydrates without it:
 *   tests/e2e/deferred-boot.spec.ts takes each kind of page live with no console error.)
 *
 * How this script knows what is React's, through public signals only (no React or Next.js private field is read):
 * - The page's root is React's once BootSignal, in the root layout, reports from its effect (`hydrated`): the root's
 *   passive effects run once the whole root has hydrated, and BootSignal's after every effect of the page before it (the
 *   islands' listeners among them). The page is then live.
 * - A region that hydrates after the root (a Suspense boundary whose code or HTML comes later: a lab on its own page,
 *   whose code is a chunk of its own) says so itself: its root element carries `data-boot-pending` from the server's
 *   HTML until its own effect has run (the lab's, once it has read the settings in its address), and it is React's
 *   when the attribute is gone. scripts/defer-runtime.mjs fails the build when a page's HTML holds a Suspense
 *   boundary with content whose first element does not carry it, so a new late region cannot be taken for React's
 *   before it hydrated (a page-wide signal alone would hand its fields and buttons to a React that has not got them).
 * - An island (a widget's React root of its own) needs no signal: once the page is live its own listeners wake it and
 *   replay what it missed (islands/Island.tsx).
 *
 * What the reader does before an element is React's is recorded and done again, in order, once it is (and has stayed
 * so for one more 50 ms poll: the effects of its commit have run).
 * - A button pressed before then is held: the event stops here, before React (whose listeners, on the document, come
 *   after this one), and the press is done again once. React never hears a press twice, and the script never has to
 *   guess whether it did: React hydrates on the spot to deliver a press that lands while it hydrates, so letting
 *   presses through made "heard by React, and pressed again" possible ("Mark chapter as completed" toggled back in
 *   CI), and deciding from a page-wide report that React had heard one would drop the presses on a region hydrated
 *   later (an island's button pressed while the page hydrated on the spot).
 *   A submit button's default is prevented too, so that the browser does not send its form to the address bar.
 * - A field's value, a checkbox or radio, a chosen file are set again so that React's onChange sees them (through
 *   React's value tracker: it is given another value first), then committed as the reader did (Enter, or leaving the
 *   field: fields that commit on blur would otherwise keep it as an uncommitted draft). These events are not held:
 *   setting a value again is harmless when React heard it already, and a field the reader changes once React or its
 *   island has it drops what was recorded for it (the newer value is theirs to hear).
 * - A <details> opened or closed is announced again (its toggle event, which React's onToggle missed).
 * - In an island, a field, checkbox or any other element touched early only wakes it: the island reads its fields on
 *   mount, and setting the value again would put back, over what the reader typed since, the value typed before the
 *   page was live. The pointer resting on an island wakes it too (islands wake on pointerover).
 * Links need nothing: they navigate without JavaScript, and neither do buttons marked `data-boot-native` (the theme
 * toggle, whose handler is an inline script of its own: pressing it twice would undo the reader's click).
 *
 * In `next dev` nothing is deferred and this only replays what was done before hydration.
 */
export const bootScript = `(function(){var d=document,booted=false,live=false,early=[],tries=0,timer=0,hovered=null;
var WAKE=['pointerdown','pointermove','touchstart','keydown','focusin','wheel','input','change','hashchange'];
function forget(el){early=early.filter(function(y){return y.el!==el||y.k==='click'})}
function keep(x){if(x.k!=='click')forget(x.el);early.push(x);if(live){tries=0;later()}}
function record(e){var t=e.target;if(!(t instanceof Element)||t.closest('[data-boot-native]'))return;var island=live&&t.closest('.island');
if(island||ours(t)){if(e.type==='input'||e.type==='change')forget(t);return}
if(e.type==='toggle'){if(t.tagName==='DETAILS')keep({k:'toggle',el:t});return}
if(e.type==='keydown'){if(e.key==='Enter'&&t.tagName==='INPUT')early.forEach(function(x){if(x.el===t&&x.k==='value')x.enter=1});return}
var b=e.type==='click'&&t.closest('button');
if(b){if(b.type==='submit'&&b.form)e.preventDefault();e.stopImmediatePropagation();keep({k:'click',el:b});return}
if(t.closest('.island')){keep({k:'wake',el:t});return}
if(e.type==='focusin')return;
if(e.type==='click'){if(t.type==='checkbox'||t.type==='radio')keep({k:'checked',el:t,v:t.checked});return}
if(t.type==='file')keep({k:'file',el:t});else if(/^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName)&&t.type!=='checkbox'&&t.type!=='radio')keep({k:'value',el:t,v:t.value})}
function ours(el){return live&&!el.closest('[data-boot-pending]')}
function fire(el,type){el.dispatchEvent(new Event(type,{bubbles:true}))}
function again(x){var el=x.el;if(x.k==='wake')fire(el,'focusin');else if(x.k==='toggle')fire(el,'toggle');else if(x.k==='click'){if(!el.disabled)el.click()}else if(x.k==='checked'){el.checked=!x.v;el.click()}
else if(x.k==='file')fire(el,'change');else{el.value=x.v+'\\u0000';Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el),'value').set.call(el,x.v);fire(el,'input');fire(el,'change');
if(x.enter)el.dispatchEvent(new KeyboardEvent('keydown',{key:'Enter',bubbles:true}));if(d.activeElement!==el)fire(el,'focusout')}}
function later(){if(!timer)timer=setTimeout(function(){timer=0;flush()},50)}
function flush(){while(early.length){var x=early[0],on=x.el.isConnected;if(on&&!ours(x.el))break;if(on&&!x.seen){x.seen=1;break}
early.shift();if(on)again(x)}if(early.length&&++tries<400)later()}
function wake(e){if(e.type==='pointermove'&&e.pointerType!=='mouse')return;boot()}
function boot(){if(booted)return;booted=true;WAKE.forEach(function(t){removeEventListener(t,wake,true)});
if(d.readyState==='loading')d.addEventListener('DOMContentLoaded',start,{once:true});else start()}
function start(){d.querySelectorAll('script[type="text/arl-deferred"]').forEach(function(x){var n=d.createElement('script');n.src=x.getAttribute('data-src');n.async=true;x.replaceWith(n)})}
function hydrated(){if(live)return;live=true;
if(hovered&&hovered.isConnected&&hovered.closest('.island'))fire(hovered,'pointerover');later()}
window.__arlBoot={boot:boot,hydrated:hydrated,booted:function(){return booted},live:function(){return live},pending:function(){return early.length}};
['click','input','change','focusin','keydown','toggle'].forEach(function(t){d.addEventListener(t,record,true)});
d.addEventListener('pointerover',function(e){if(!live)hovered=e.target},true);
WAKE.forEach(function(t){addEventListener(t,wake,{capture:true,passive:true})});
if(location.search||location.hash.indexOf('=')>=0)boot();
d.addEventListener('DOMContentLoaded',function(){if(d.querySelector('[data-boot-eager]'))boot()},{once:true})})()`;
