import LanguageIcon from '@mui/icons-material/Translate';
import { IconButton, Menu, MenuItem } from '@mui/material';
import { useState } from 'react';
import { LocalesMenuButton, useLocaleState, useLocales, useTranslate } from 'react-admin';
import { usePhone } from './card-list';

/**
 * The language menu of the app bar: react-admin's (icon and language name) where there is room; on a phone the icon
 * alone, so a long page title keeps its space.
 */
export function ConsoleLocalesButton() {
  const phone = usePhone();
  const translate = useTranslate();
  const locales = useLocales();
  const [locale, setLocale] = useLocaleState();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  if (!phone) return <LocalesMenuButton />;
  return (
    <>
      <IconButton
        color="inherit"
        aria-label={translate('console.language')}
        aria-haspopup="true"
        aria-controls={anchor ? 'console-locales-menu' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <LanguageIcon />
      </IconButton>
      <Menu
        id="console-locales-menu"
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={() => setAnchor(null)}
      >
        {locales.map((language) => (
          <MenuItem
            key={language.locale}
            lang={language.locale}
            selected={language.locale === locale}
            onClick={() => {
              setLocale(language.locale);
              setAnchor(null);
            }}
          >
            {language.name}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
