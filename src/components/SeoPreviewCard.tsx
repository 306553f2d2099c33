'use client'
import { useFormFields, useTranslation } from '@payloadcms/ui'

const TITLE_PATH = 'meta.title'
const DESCRIPTION_PATH = 'meta.description'

/**
 * The SEO plugin's preview as the plugin draws it: the permalink, then the meta title and
 * description as they are being typed.
 */
export function SeoPreviewCard({ href }: { href: string }) {
  const { t } = useTranslation()
  const title = useFormFields(([fields]) => fields[TITLE_PATH]?.value)
  const description = useFormFields(([fields]) => fields[DESCRIPTION_PATH]?.value)
  return (
    <div style={{ marginBottom: '20px' }}>
      <div>{t('plugin-seo:preview' as never)}</div>
      <div style={{ color: '#9A9A9A', marginBottom: '5px' }}>
        {t('plugin-seo:previewDescription' as never)}
      </div>
      <div
        style={{
          background: 'var(--theme-elevation-50)',
          borderRadius: '5px',
          boxShadow: '0px 0px 10px rgba(0, 0, 0, 0.1)',
          maxWidth: '600px',
          padding: '20px',
          pointerEvents: 'none',
          width: '100%',
        }}
      >
        <div>
          <a href={href} style={{ textDecoration: 'none' }}>
            {href || 'https://...'}
          </a>
        </div>
        <h4 style={{ margin: 0 }}>
          <a href="/" style={{ textDecoration: 'none' }}>
            {typeof title === 'string' ? title : ''}
          </a>
        </h4>
        <p style={{ margin: 0 }}>{typeof description === 'string' ? description : ''}</p>
      </div>
    </div>
  )
}
