/**
 * Inlined after a chapter's "On this page" list: marks the link of the section being read (aria-current="location",
 * styled in globals.css), the last heading above the top third of the window, on scroll (at most once a frame).
 * Plain script, not React: chapter pages run no framework code until the reader interacts
 * (app/_components/boot/deferred-boot.ts), and this is about reading, not interacting.
 */
export const tocSpyScript = `(function(){var t=document.querySelector('.toc');if(!t)return;var l=[].slice.call(t.querySelectorAll('a[href^="#"]'));var h=l.map(function(a){return document.getElementById(decodeURIComponent(a.hash.slice(1)))});var q=0;function m(){q=0;var i=-1,y=innerHeight*0.3;h.forEach(function(e,k){if(e&&e.getBoundingClientRect().top<=y)i=k});l.forEach(function(a,k){if(k===i)a.setAttribute('aria-current','location');else a.removeAttribute('aria-current')})}addEventListener('scroll',function(){if(!q)q=requestAnimationFrame(m)},{passive:true});m()})();`;
