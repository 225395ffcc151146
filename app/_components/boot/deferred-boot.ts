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
 *   it must for async scripts that run late on any page. (This script used to fake `document.readyState` as
 *   "loading" until hydration; with Next 16 every page hydrates, labs included, without it.) Should a framework
 *   upgrade change that, the page would not go live: 20 s after the framework's scripts have run without React
 *   reporting hydration, this script logs an error, and tests/e2e/deferred-boot.spec.ts fails on any console error.
 * - What the reader does before then would go unheard, so it is recorded and done again, in order, once each
 *   element is React's, and has stayed so for one more 50 ms poll (its effects have run). An element is React's when
 *   React has hydrated the page and it is not inside a `data-boot-pending` element. BootSignal, in the root layout,
 *   reports twice, through public React semantics only (no private field): from a layout effect, in the very commit
 *   that hydrates the root (`committed`), and from a passive effect, once the page's effects (the islands' listeners
 *   among them) have run: the page is then live, and what was recorded is done again. The only part of a page
 *   that hydrates after the root is a lab on its own page (it is inside LabLoader's Suspense boundary, and its code
 *   is a chunk of its own); the lab's root carries `data-boot-pending` from the server's HTML until its own effect
 *   has read the settings in its address, which is after it has hydrated. A new late region (another Suspense
 *   boundary in server-rendered HTML) must mark itself the same way.
 *   A button is pressed again; a field's value, a checkbox or radio, a chosen file are set again so that React's
 *   onChange sees them (through React's value tracker: it is given another value first), then committed as the reader
 *   did (Enter, or leaving the field: fields that commit on blur would otherwise keep it as an uncommitted draft); a
 *   <details> opened or closed is announced again (its toggle event, which React's onToggle missed). Elements inside an
 *   island need not be the page's React's: it wakes on the replayed event and reads its fields on mount
 *   (islands/Island.tsx), so a field, checkbox or any other element of an island touched early only wakes it, and its
 *   value is not set again: that would put back, over what the reader typed since, the value typed before the page was
 *   live. The pointer resting on an island wakes it too (islands wake on pointerover).
 *   After that, the same is kept for an element that is not React's yet (in a lab whose code is still arriving:
 *   React drops a click there unless it can hydrate the button on the spot, and hydration puts a field back to the
 *   lab's state); and a field the reader changes once React or its island has it drops what was recorded for it (the
 *   newer value is theirs to hear).
 *   A button inside a `data-boot-pending` element is held even when React has it, and React never hears that press:
 *   it would act on the settings the server rendered, not the link's (in CI the comparison ran on seed 0 from a link
 *   with seed=3: the press reached a lab React had just hydrated, most likely on the spot to deliver it).
 *   Did React hear a press? It did when, once the press has gone through the page, BootSignal has reported the commit
 *   and the button is not inside a pending element. A press that reaches React while it is still hydrating makes it
 *   hydrate on the spot, commit (BootSignal's layout effect reports) and only then run the handler; a press before
 *   React's code runs finds no React at all. (The passive effect comes a task or more after the commit: in CI "Mark
 *   chapter as completed", pressed in between, was toggled by React and back by the replay when only that report was
 *   asked.) A press React has heard is not pressed again. React stops a press it cannot deliver yet (the page's code is
 *   there, the button's is not) before the window: it stays recorded.
 *   A submit button's click is held back, so that the browser does not send its form to the address bar first; it
 *   is always pressed again, since React heard the click but its form's submit never happened.
 *   Links need nothing: they navigate without JavaScript, and neither do buttons marked `data-boot-native` (the
 *   theme toggle, whose handler is an inline script of its own: pressing it twice would undo the reader's click).
 *
 * In `next dev` nothing is deferred and this only replays what was done before hydration.
 */
export const bootScript = `(function(){var WATCH=20000,d=document,booted=false,committed=false,live=false,early=[],tries=0,timer=0,hovered=null,late=null,loading=0,watch=0;
var WAKE=['pointerdown','pointermove','touchstart','keydown','focusin','wheel','input','change','hashchange'];
function forget(el){early=early.filter(function(y){return y.el!==el||y.k==='click'})}
function keep(x){if(x.k!=='click')forget(x.el);early.push(x);if(live){tries=0;later()}return x}
function record(e){var t=e.target;if(e.type==='click')late=null;if(!(t instanceof Element)||t.closest('[data-boot-native]'))return;var b=e.type==='click'&&t.closest('button'),held=b&&b.closest('[data-boot-pending]');
if(live&&!held&&(t.closest('.island')||reacts(t))){if(e.type==='input'||e.type==='change')forget(t);return}
if(e.type==='toggle'){if(t.tagName==='DETAILS')keep({k:'toggle',el:t});return}
if(e.type==='keydown'){if(e.key==='Enter'&&t.tagName==='INPUT')early.forEach(function(x){if(x.el===t&&x.k==='value')x.enter=1});return}
if(b){var sub=b.type==='submit'&&!!b.form;if(sub)e.preventDefault();var x=keep({k:'click',el:b});if(held)e.stopImmediatePropagation();else if(!sub)late=x;return}
if(t.closest('.island')){keep({k:'wake',el:t});return}
if(e.type==='focusin')return;
if(e.type==='click'){if(t.type==='checkbox'||t.type==='radio')keep({k:'checked',el:t,v:t.checked});return}
if(t.type==='file')keep({k:'file',el:t});else if(/^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName)&&t.type!=='checkbox'&&t.type!=='radio')keep({k:'value',el:t,v:t.value})}
function reacts(el){return live&&heard(el)}
function heard(el){return committed&&!el.closest('[data-boot-pending]')}
function fire(el,type){el.dispatchEvent(new Event(type,{bubbles:true}))}
function again(x){var el=x.el;if(x.k==='wake')fire(el,'focusin');else if(x.k==='toggle')fire(el,'toggle');else if(x.k==='click'){if(!el.disabled)el.click()}else if(x.k==='checked'){el.checked=!x.v;el.click()}
else if(x.k==='file')fire(el,'change');else{el.value=x.v+'\\u0000';Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el),'value').set.call(el,x.v);fire(el,'input');fire(el,'change');
if(x.enter)el.dispatchEvent(new KeyboardEvent('keydown',{key:'Enter',bubbles:true}));if(d.activeElement!==el)fire(el,'focusout')}}
function later(){if(!timer)timer=setTimeout(function(){timer=0;flush()},50)}
function flush(){while(early.length){var x=early[0],on=x.el.isConnected;if(on&&!reacts(x.el))break;if(on&&!x.seen){x.seen=1;break}
early.shift();if(on)again(x)}if(early.length&&++tries<400)later()}
function wake(e){if(e.type==='pointermove'&&e.pointerType!=='mouse')return;boot()}
function boot(){if(booted)return;booted=true;WAKE.forEach(function(t){removeEventListener(t,wake,true)});
if(d.readyState==='loading')d.addEventListener('DOMContentLoaded',start,{once:true});else start()}
function start(){var s=d.querySelectorAll('script[type="text/arl-deferred"]');if(!s.length)return;
loading=s.length;
s.forEach(function(x){var n=d.createElement('script');n.src=x.getAttribute('data-src');n.async=true;n.onload=n.onerror=loaded;x.replaceWith(n)})}
function loaded(){if(--loading===0&&!live)watch=setTimeout(function(){if(!live)console.error("deferred-boot: the framework's scripts have run but React has not reported hydration after "+WATCH/1000+" s: the page is not live (app/_components/boot/deferred-boot.ts)")},WATCH)}
function commit(){committed=true;clearTimeout(watch)}
function hydrated(){if(live)return;commit();live=true;
if(hovered&&hovered.isConnected&&hovered.closest('.island'))fire(hovered,'pointerover');later()}
window.__arlBoot={boot:boot,committed:commit,hydrated:hydrated,booted:function(){return booted},live:function(){return live},pending:function(){return early.length}};
['click','input','change','focusin','keydown','toggle'].forEach(function(t){d.addEventListener(t,record,true)});
d.addEventListener('pointerover',function(e){if(!live)hovered=e.target},true);
addEventListener('click',function(){if(late&&heard(late.el))early=early.filter(function(y){return y!==late});late=null});
WAKE.forEach(function(t){addEventListener(t,wake,{capture:true,passive:true})});
if(location.search||location.hash.indexOf('=')>=0)boot();
d.addEventListener('DOMContentLoaded',function(){if(d.querySelector('[data-boot-eager]'))boot()},{once:true})})()`;
