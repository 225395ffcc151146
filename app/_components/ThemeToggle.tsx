/**
 * Light/dark switch; without a stored choice the page follows the system setting. It needs no React: the script
 * below, inlined in <head>, applies the stored theme before the first paint and handles the button's clicks from
 * the moment the page shows it. Which icon and name the button shows follows the theme in CSS (globals.css).
 */
const KEY = 'agentic-rl-lab:theme';

export const themeScript = `(function(){var k=${JSON.stringify(KEY)},d=document.documentElement;
try{var t=localStorage.getItem(k);if(t==='light'||t==='dark')d.dataset.theme=t}catch(e){}
document.addEventListener('click',function(e){if(!(e.target instanceof Element&&e.target.closest('.theme-toggle')))return;
var now=d.dataset.theme||(matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light'),next=now==='dark'?'light':'dark';
d.dataset.theme=next;try{localStorage.setItem(k,next)}catch(e){/* storage blocked: the choice lasts for this page */}})})()`;

export function ThemeToggle() {
  return (
    <button type="button" className="theme-toggle" data-boot-native="">
      <span className="when-light">
        <span aria-hidden="true">☾</span>
        <span className="sr-only">Switch to dark theme</span>
      </span>
      <span className="when-dark">
        <span aria-hidden="true">☀︎</span>
        <span className="sr-only">Switch to light theme</span>
      </span>
    </button>
  );
}
