/**
 * Inlined after a chapter's "On this page" list: marks the link of the section being read (aria-current="location",
 * styled in globals.css), the last heading above the top third of the window. Plain script, not React: chapter pages
 * run no framework code until the reader interacts (app/_components/boot/deferred-boot.ts), and this is about
 * reading, not interacting. An IntersectionObserver whose area runs from far above the window down to its top third
 * says which headings are above that line, without reading the layout on scroll (prose is laid out lazily:
 * content-visibility in globals.css).
 */
export const tocSpyScript = `(function(){var t=document.querySelector('.toc');if(!t||!window.IntersectionObserver)return;var l=[].slice.call(t.querySelectorAll('a[href^="#"]'));var h=l.map(function(a){return document.getElementById(decodeURIComponent(a.hash.slice(1)))});var above=[];var o=new IntersectionObserver(function(es){es.forEach(function(e){above[h.indexOf(e.target)]=e.isIntersecting});var i=-1;h.forEach(function(_,k){if(above[k])i=k});l.forEach(function(a,k){if(k===i)a.setAttribute('aria-current','location');else a.removeAttribute('aria-current')})},{rootMargin:'100000px 0px -70% 0px'});h.forEach(function(e){if(e)o.observe(e)})})();`;
