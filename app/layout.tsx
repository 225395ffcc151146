import type { Metadata, Viewport } from 'next';
import './globals.css';
import { ThemeToggle, themeScript } from './_components/ThemeToggle';
import { BootSignal } from './_components/boot/BootSignal';
import { bootScript } from './_components/boot/deferred-boot';
import { storedProgressScript } from './_components/progress/stored-progress-script';

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

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: themeScript }} />
        <script dangerouslySetInnerHTML={{ __html: bootScript }} />
        <script dangerouslySetInnerHTML={{ __html: storedProgressScript }} />
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="site-header">
          <a href="/" className="brand">
            Agentic RL Lab
          </a>
          <nav aria-label="Site">
            <a href="/#chapters">Chapters</a>
            <a href="/path/">Path</a>
            <a href="/labs/">Labs</a>
            <a href="/search/">Search</a>
          </nav>
          <ThemeToggle />
        </header>
        <div id="main">{children}</div>
        <BootSignal />
        <footer className="site-footer">
          <p>
            Agentic RL Lab: an open course on training LLM agents with reinforcement learning. Your progress stays on
            this device.
          </p>
          <nav aria-label="Course reference" className="footer-links">
            <a href="/notation/">Notation</a>
            <a href="/glossary/">Glossary</a>
            <a href="/references/">References</a>
          </nav>
        </footer>
      </body>
    </html>
  );
}
