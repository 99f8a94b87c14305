import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { forgetStoredUser } from './auth/auth-provider';
import { completeProviderSignIn } from './auth/provider-sign-in';
import { ConsoleApp } from './console-app';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
// A sign-in through the company's provider comes back with a one-time code: exchanged before the first screen.
void completeProviderSignIn(forgetStoredUser).finally(() => {
  createRoot(root).render(
    <StrictMode>
      <ConsoleApp />
    </StrictMode>,
  );
});
