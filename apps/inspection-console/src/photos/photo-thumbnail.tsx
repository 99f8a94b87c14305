import { ButtonBase } from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import Lightbox from 'yet-another-react-lightbox';
import 'yet-another-react-lightbox/styles.css';

/** A record's photo as a small thumbnail; activating it opens the full-size photo in a lightbox. */
export function PhotoThumbnail({
  recordId,
  url,
  size = 48,
}: {
  recordId: number;
  url: string | null;
  size?: number;
}) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  if (!url) return null;
  return (
    <>
      <ButtonBase
        onClick={(event) => {
          event.stopPropagation();
          setOpen(true);
        }}
        aria-label={translate('console.records.open_photo', { id: recordId })}
        sx={{ borderRadius: 1, overflow: 'hidden', border: 1, borderColor: 'divider' }}
      >
        <img
          src={url}
          alt={translate('console.records.photo_of', { id: recordId })}
          width={size}
          height={size}
          style={{ objectFit: 'cover', display: 'block' }}
        />
      </ButtonBase>
      <Lightbox
        open={open}
        close={() => setOpen(false)}
        slides={[{ src: url, alt: translate('console.records.photo_of', { id: recordId }) }]}
        carousel={{ finite: true }}
        render={{ buttonPrev: () => null, buttonNext: () => null }}
      />
    </>
  );
}
