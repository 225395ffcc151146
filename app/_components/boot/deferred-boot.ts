/**
 * The site's JavaScript starts when the reader first reaches for the page, not while it loads. Every page is
 * complete HTML (prose, math, charts, the lab's controls), so the framework has nothing to do until the reader moves
 * the mouse, touches, scrolls with the wheel, focuses or types. Booting it at load blocked the main thread of
 * Lighthouse's simulated phone (4× CPU slowdown) for 0.2–0.6 s of total blocking time per page (`npm run
 * lighthouse`), most of it React and the router evaluating and hydrating a page that needed nothing from them yet.
 * scripts/defer-runtime.mjs turns the build's framework <script src> tags into inert `text/arl-deferred` ones; this
 * script, inlined in <head>, starts them.
 *
 * - A page opened with settings in its address (a lab link's ?query, an assignment's #key=value), or whose hash
 *   changes, boots as soon as it is parsed: those settings must show before the reader acts on them. (The deferred
 *   tags end the body, so a boot asked for earlier, from <head> or by a reader quicker than a long page, waits.)
 *   So does a page with a `data-boot-eager` element: one whose content depends on the address or the device (the
 *   exercise hand-in page reads its assignment from the hash) and would otherwise show a placeholder.
 * - Next.js reads the page's inline data as a stream it closes at DOMContentLoaded, long past by then; closing it
 *   before React has hydrated from it breaks hydration. So until React reports it has hydrated (BootSignal in the
 *   root layout) the document reads as still loading, and then DOMContentLoaded is fired as the browser would have.
 * - What the reader does before then would go unheard, so it is recorded and done again, in order, once each
 *   element is React's (it has React's props: a lab inside a Suspense boundary hydrates a little after the page),
 *   has stayed so for one more 50 ms poll (its effects have run) and is not inside a `data-boot-pending` element (a
 *   lab until it has read the settings in its address). A button is pressed again; a field's value, a checkbox or
 *   radio, a chosen file are set again so that React's onChange sees them (through React's value tracker: it is
 *   given another value first), then committed as the reader did (Enter, or leaving the field: fields that commit
 *   on blur would otherwise keep it as an uncommitted draft); a <details> opened or closed is announced again (its
 *   toggle event, which React's onToggle missed). Elements inside an island need no React props: the island wakes on
 *   the replayed event and reads its fields on mount (islands/Island.tsx), so a field, checkbox or any other element
 *   of an island touched early only wakes it, and its value is not set again: that would put back, over what the
 *   reader typed since, the value typed before the page was live. The pointer resting on an island wakes it too
 *   (islands wake on pointerover).
 *   After that, the same is kept for an element React has not hydrated yet (a lab whose code is still arriving:
 *   React drops a click there unless it can hydrate the button on the spot, which a listener after React's checks,
 *   and hydration puts a field back to the lab's state); and a field the reader changes once React or its island has
 *   it drops what was recorded for it (the newer value is theirs to hear).
 *   A button inside a `data-boot-pending` element is held even when React has it, and React never hears that press:
 *   it would act on the settings the server rendered, not the link's (in CI the comparison ran on seed 0 from a link
 *   with seed=3: the press reached a lab React had just hydrated, most likely on the spot to deliver it).
 *   That check (did React hear the press?) runs for every press, not only those after the page is live: React hydrates a moment before BootSignal's
 *   effect reports it, and a press in that moment is heard by React and recorded too (in CI "Mark chapter as
 *   completed" was toggled by React and back by the replay). A press React has heard is not pressed again.
 *   A submit button's click is held back, so that the browser does not send its form to the address bar first; it
 *   is always pressed again, since React heard the click but its form's submit never happened.
 *   Links need nothing: they navigate without JavaScript, and neither do buttons marked `data-boot-native` (the
 *   theme toggle, whose handler is an inline script of its own: pressing it twice would undo the reader's click).
 *
 * In `next dev` nothing is deferred and this only replays what was done before hydration.
 */
export const bootScript = `(function(){var d=document,booted=false,live=false,early=[],tries=0,timer=0,hovered=null,late=null;
var WAKE=['pointerdown','pointermove','touchstart','keydown','focusin','wheel','input','change','hashchange'];
function forget(el){early=early.filter(function(y){return y.el!==el||y.k==='click'})}
function keep(x){if(x.k!=='click')forget(x.el);early.push(x);if(live){tries=0;later()}return x}
function record(e){var t=e.target;if(!(t instanceof Element)||t.closest('[data-boot-native]'))return;var b=e.type==='click'&&t.closest('button'),held=b&&b.closest('[data-boot-pending]');
if(live&&!held&&(t.closest('.island')||hasProps(b||t))){if(e.type==='input'||e.type==='change')forget(t);return}
if(e.type==='toggle'){if(t.tagName==='DETAILS')keep({k:'toggle',el:t});return}
if(e.type==='keydown'){if(e.key==='Enter'&&t.tagName==='INPUT')early.forEach(function(x){if(x.el===t&&x.k==='value')x.enter=1});return}
if(b){var sub=b.type==='submit'&&!!b.form;if(sub)e.preventDefault();var x=keep({k:'click',el:b});if(held)e.stopImmediatePropagation();else if(!sub)late=x;return}
if(t.closest('.island')){keep({k:'wake',el:t});return}
if(e.type==='focusin')return;
if(e.type==='click'){if(t.type==='checkbox'||t.type==='radio')keep({k:'checked',el:t,v:t.checked});return}
if(t.type==='file')keep({k:'file',el:t});else if(/^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName)&&t.type!=='checkbox'&&t.type!=='radio')keep({k:'value',el:t,v:t.value})}
function hasProps(el){for(var k in el)if(k.indexOf('__reactProps$')===0)return true;return false}
function ready(el){return !el.closest('[data-boot-pending]')&&(!!el.closest('.island')||hasProps(el))}
function fire(el,type){el.dispatchEvent(new Event(type,{bubbles:true}))}
function again(x){var el=x.el;if(x.k==='wake')fire(el,'focusin');else if(x.k==='toggle')fire(el,'toggle');else if(x.k==='click'){if(!el.disabled)el.click()}else if(x.k==='checked'){el.checked=!x.v;el.click()}
else if(x.k==='file')fire(el,'change');else{el.value=x.v+'\\u0000';Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el),'value').set.call(el,x.v);fire(el,'input');fire(el,'change');
if(x.enter)el.dispatchEvent(new KeyboardEvent('keydown',{key:'Enter',bubbles:true}));if(d.activeElement!==el)fire(el,'focusout')}}
function later(){if(!timer)timer=setTimeout(function(){timer=0;flush()},50)}
function flush(){while(early.length){var x=early[0],on=x.el.isConnected;if(on&&!ready(x.el))break;if(on&&!x.seen){x.seen=1;break}
early.shift();if(on)again(x)}if(early.length&&++tries<400)later()}
function wake(e){if(e.type==='pointermove'&&e.pointerType!=='mouse')return;boot()}
function boot(){if(booted)return;booted=true;WAKE.forEach(function(t){removeEventListener(t,wake,true)});
if(d.readyState==='loading')d.addEventListener('DOMContentLoaded',start,{once:true});else start()}
function start(){var s=d.querySelectorAll('script[type="text/arl-deferred"]');if(!s.length)return;
Object.defineProperty(d,'readyState',{configurable:true,get:function(){return'loading'}});
s.forEach(function(x){var n=d.createElement('script');n.src=x.getAttribute('data-src');n.async=true;x.replaceWith(n)})}
function hydrated(){if(live)return;live=true;
if(Object.getOwnPropertyDescriptor(d,'readyState')){delete d.readyState;d.dispatchEvent(new Event('DOMContentLoaded'))}
if(hovered&&hovered.isConnected&&hovered.closest('.island'))fire(hovered,'pointerover');later()}
window.__arlBoot={boot:boot,hydrated:hydrated,booted:function(){return booted},live:function(){return live},pending:function(){return early.length}};
['click','input','change','focusin','keydown','toggle'].forEach(function(t){d.addEventListener(t,record,true)});
d.addEventListener('pointerover',function(e){if(!live)hovered=e.target},true);
addEventListener('click',function(){if(late&&hasProps(late.el))early=early.filter(function(y){return y!==late});late=null});
WAKE.forEach(function(t){addEventListener(t,wake,{capture:true,passive:true})});
if(location.search||location.hash.indexOf('=')>=0)boot();
d.addEventListener('DOMContentLoaded',function(){if(d.querySelector('[data-boot-eager]'))boot()},{once:true})})()`;
