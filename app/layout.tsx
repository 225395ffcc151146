import type { Metadata, Viewport } from 'next';
import Link from 'next/link';
import 'katex/dist/katex.min.css';
import './globals.css';
import { ThemeToggle } from './_components/ThemeToggle';

export const metadata: Metadata = {
  title: { default: 'Agentic RL Lab', template: '%s · Agentic RL Lab' },
  description: 'Learn how LLM agents are trained with reinforcement learning, with labs that train tiny models in your browser.',
};

export const viewport: Viewport = {
  width: 'device-width',
  initialScale: 1,
  themeColor: [
    { media: '(prefers-color-scheme: light)', color: '#ffffff' },
    { media: '(prefers-color-scheme: dark)', color: '#111418' },
  ],
};

// Runs before paint so a stored theme never flashes the other one.
const themeScript = `try{var t=localStorage.getItem('agentic-rl-lab:theme');if(t==='light'||t==='dark')document.documentElement.dataset.theme=t}catch(e){}`;

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: themeScript }} />
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="site-header">
          <Link href="/" className="brand">
            Agentic RL Lab
          </Link>
          <nav aria-label="Site">
            <Link href="/#chapters">Chapters</Link>
            <Link href="/labs/">Labs</Link>
            <Link href="/search/">Search</Link>
          </nav>
          <ThemeToggle />
        </header>
        <div id="main">{children}</div>
        <footer className="site-footer">
          <p>
            Agentic RL Lab: an open course on training LLM agents with reinforcement learning. Your progress stays on
            this device.
          </p>
          <nav aria-label="Course reference" className="footer-links">
            <Link href="/notation/">Notation</Link>
            <Link href="/glossary/">Glossary</Link>
            <Link href="/references/">References</Link>
          </nav>
        </footer>
      </body>
    </html>
  );
}
